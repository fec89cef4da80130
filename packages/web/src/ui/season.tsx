/** A season's label, kept on one line (global.css `.season-label`): "2026-" and "27" never part. */
export const Season = ({ label }: { label: string }) => (
  <span className="season-label">{label}</span>
)
