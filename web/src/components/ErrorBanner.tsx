export interface ErrorBannerProps {
  title: string;
  messages: readonly string[];
  onDismiss(): void;
  testId: string;
}

/** A readable, dismissable list of problems. Settings and results stay as they were. */
export function ErrorBanner({ title, messages, onDismiss, testId }: ErrorBannerProps) {
  if (messages.length === 0) return null;
  return (
    <div className="error-banner" role="alert" data-testid={testId}>
      <div>
        <strong>{title}</strong>
        <ul>
          {messages.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      </div>
      <button type="button" className="dismiss" onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
