// The invite form's optional teams (issue 42): one checkbox per team, all named `teamId`, so a form posted without
// JavaScript carries the ticked ones. Nothing when the organization has no teams (or teams are off).
import { useT } from "~/i18n/react";

export function InviteTeamBoxes({ teams }: { teams: Array<{ id: string; name: string }> | null }) {
  const { t } = useT();
  if (!teams?.length) return null;
  return (
    <fieldset className="field">
      <legend>{t("orgs.invite.teams")}</legend>
      {teams.map((team) => (
        <div className="field checkbox" key={team.id}>
          <input type="checkbox" id={`invite-team-${team.id}`} name="teamId" value={team.id} />
          <label htmlFor={`invite-team-${team.id}`}>
            <bdi>{team.name}</bdi>
          </label>
        </div>
      ))}
    </fieldset>
  );
}
