import { codeSpans } from '../format';

/** Text from the engine with its `quoted` names shown as code. */
export function CodeText({ text }: { text: string }) {
  return <>{codeSpans(text).map((p, i) => (p.code ? <code key={i}>{p.text}</code> : p.text))}</>;
}
