import { Paths } from '../../routing/paths';

/** The link a user shares (docs/api.md): `origin/#/register?invite_code={code}`, read back by the register screen. */
export function inviteLink(code: string, origin: string = window.location.origin) {
  return `${origin}/#${Paths.register}?invite_code=${encodeURIComponent(code)}`;
}
