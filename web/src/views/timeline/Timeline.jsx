export function Timeline() {
  return <div class="page">Timeline</div>;
}
