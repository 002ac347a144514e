import { Popup } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageList } from './LanguageList';

export default function LanguageSidebar({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  // Mounted closed, then opened, so the popup slides in like any other.
  useEffect(() => setVisible(true), []);
  return (
    <Popup visible={visible} onMaskClick={onClose} position="right" bodyClassName="side-popup">
      <h2 className="side-popup-title">{t('language.title')}</h2>
      <LanguageList onChosen={onClose} />
    </Popup>
  );
}
