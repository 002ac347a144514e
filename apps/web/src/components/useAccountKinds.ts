import { AccountType, VerifyRegType } from '@pipwise/domain';
import { useBasicInfoQuery } from '../api/queries/auth';

/** Which kinds of account the settings offer (docs/api.md: verify_reg_type and is_show_mobile). */
export function useAccountKinds() {
  const info = useBasicInfoQuery();
  const regType = info.data?.verify_reg_type ?? VerifyRegType.email;
  const phoneShown = (info.data?.is_show_mobile ?? 1) !== 0;
  const kinds: (typeof AccountType)[keyof typeof AccountType][] = [];
  if (regType !== VerifyRegType.phone || !phoneShown) kinds.push(AccountType.email);
  if (regType !== VerifyRegType.email && phoneShown) kinds.push(AccountType.phone);
  return { kinds, loading: info.isPending };
}
