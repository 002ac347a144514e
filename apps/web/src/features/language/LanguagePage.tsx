import { useTranslation } from 'react-i18next';
import { Screen, useGoBack } from '../../components/Screen';
import { LanguageList } from '../../components/LanguageList';

export default function LanguagePage() {
  const { t } = useTranslation();
  const goBack = useGoBack();
  return (
    <Screen title={t('language.title')} back>
      <LanguageList onChosen={goBack} />
    </Screen>
  );
}
