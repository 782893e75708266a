// The invite form's optional teams (issue 42): one checkbox per team, all named `teamId`, so a form posted without
// JavaScript carries the ticked ones. Nothing when the organization has no teams (or teams are off).
export function InviteTeamBoxes({ teams }: { teams: Array<{ id: string; name: string }> | null }) {
  if (!teams?.length) return null;
  return (
    <fieldset className="field">
      <legend>Teams (optional)</legend>
      {teams.map((t) => (
        <div className="field checkbox" key={t.id}>
          <input type="checkbox" id={`invite-team-${t.id}`} name="teamId" value={t.id} />
          <label htmlFor={`invite-team-${t.id}`}>{t.name}</label>
        </div>
      ))}
    </fieldset>
  );
}
