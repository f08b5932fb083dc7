// The chart's view buttons (whole run, steady-state zoom, linear...), as the page and the embed
// both show them.

import { viewLabel, type ViewSpec } from '../data/views';

export function ViewTabs(props: {
  views: readonly ViewSpec[];
  current: string;
  runSeconds: number;
  onView(id: string): void;
  className?: string;
}) {
  return (
    <div className={props.className ? `tabs ${props.className}` : 'tabs'} role="group" aria-label="Chart view">
      {props.views.map((v) => (
        <button
          key={v.id}
          type="button"
          aria-pressed={v.id === props.current}
          className={v.id === props.current ? 'tab active' : 'tab'}
          data-testid={`view-${v.id}`}
          onClick={() => props.onView(v.id)}
        >
          {viewLabel(v, props.runSeconds)}
        </button>
      ))}
    </div>
  );
}
