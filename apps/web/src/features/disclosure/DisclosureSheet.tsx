import { Button, Popup } from 'antd-mobile';
import { useBasicInfoQuery } from '../../api/queries/auth';
import { useAcceptDisclosureMutation } from '../../api/queries/disclosure';
import { useLazyTranslation } from '../../i18n/lazy';
import { useDisclosurePrompt } from '../../stores/disclosurePrompt';
import { RiskDisclosureText } from '../../components/RiskDisclosureText';

/**
 * Shown to a signed-in real account whenever the risk disclosure in force is one it has not accepted:
 * until it does, the server refuses its orders (1010). "Later" puts it off until an order is refused.
 */
export default function DisclosureSheet() {
  const { t } = useLazyTranslation('signup');
  const version = useBasicInfoQuery().data?.risk_disclosure_version;
  const accept = useAcceptDisclosureMutation();
  const postpone = useDisclosurePrompt((state) => state.postpone);
  if (version === undefined) return null;
  return (
    <Popup visible position="bottom" bodyClassName="risk-disclosure-sheet" onMaskClick={postpone}>
      <p className="risk-disclosure-updated" role="status">
        {t('disclosure.updated')}
      </p>
      <RiskDisclosureText version={version} />
      <div className="risk-disclosure-actions">
        <Button block fill="outline" onClick={postpone}>
          {t('disclosure.later')}
        </Button>
        <Button block color="primary" loading={accept.isPending} onClick={() => accept.mutate(version)}>
          {t('disclosure.accept')}
        </Button>
      </div>
    </Popup>
  );
}
