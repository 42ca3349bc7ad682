// The head of a panel (details, range figures, keyboard help): its title and a close button.
export function PanelHead({ children, onClose }) {
  return (
    <div class="panel-head">
      <strong>{children}</strong>
      <button type="button" onClick={onClose} aria-label="Close">
        ×
      </button>
    </div>
  );
}
