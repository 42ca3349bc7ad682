export function ErrorBanner({ error, onClose }) {
  return (
    <div class="error-banner" role="alert" data-testid="error">
      <strong>{error.title}</strong>
      <pre class="error-message">{error.message}</pre>
      <button type="button" onClick={onClose} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
