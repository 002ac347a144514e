import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Screen } from '../../components/Screen';
import { LanguageList } from './LanguageList';

export default function LanguagePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Screen title={t('language.title')} back>
      <LanguageList onChosen={() => void navigate(-1)} />
    </Screen>
  );
}
