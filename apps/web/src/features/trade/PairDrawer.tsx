import { Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { TradePair } from '../../api/types';
import { Price } from '../../components/market';

/** The side list of pairs the trade screen switches between. */
export default function PairDrawer({
  open,
  pairs,
  current,
  onPick,
  onClose,
}: {
  open: boolean;
  pairs: TradePair[];
  current: number;
  onPick: (id: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Popup visible={open} onMaskClick={onClose} position="left" bodyClassName="side-popup">
      <h2 className="side-popup-title">{t('trade.choose_pair')}</h2>
      <ul className="drawer-list">
        {pairs.map((candidate) => (
          <li key={candidate.Id}>
            <button
              type="button"
              className={`drawer-item${candidate.Id === current ? ' drawer-item-active' : ''}`}
              onClick={() => {
                onPick(candidate.Id);
                onClose();
              }}
            >
              <span className="pair-code">{candidate.ShowCode}</span>
              <Price value={candidate.ForexQuotations?.Close} precision={candidate.PricePrecision} />
            </button>
          </li>
        ))}
      </ul>
    </Popup>
  );
}
