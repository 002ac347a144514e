import { Button, Toast } from 'antd-mobile';
import { LinkOutline, UploadOutline } from 'antd-mobile-icons';
import { QRCodeSVG } from 'qrcode.react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useInviteInfoQuery } from '../../api/queries/invite';
import { Screen } from '../../components/Screen';
import { ErrorState, ListSkeleton } from '../../components/states';
import { formatNumber } from '../../i18n/format';
import { copy } from '../../components/CopyText';
import './invite.css';
import { inviteLink } from './inviteLink';

/**
 * Invite (/mine/invite, docs/api.md): the user's link as text, QR code, copy and share, and how many
 * registered with it. Demo accounts never get here (RealAccountOnly shows the blocked message).
 */
export default function InvitePage() {
  const { t } = useTranslation();
  const info = useInviteInfoQuery();
  return (
    <Screen title={t('invite.title')} back>
      {info.isPending ? (
        <ListSkeleton rows={4} />
      ) : info.isError ? (
        <ErrorState onRetry={() => void info.refetch()} />
      ) : (
        <InviteCard code={info.data.invite_code} invited={info.data.invited_count} />
      )}
    </Screen>
  );
}

function InviteCard({ code, invited }: { code: string; invited: number }) {
  const { t } = useTranslation();
  const link = inviteLink(code);
  const linkLabel = useId();
  const countLabel = useId();

  const copyLink = () =>
    copy(link).then(
      () => Toast.show({ content: t('invite.copied') }),
      () => Toast.show({ content: t('invite.copy_failed') }),
    );

  // The system share sheet where the browser has one; elsewhere the link is copied to paste anywhere.
  const share = () => {
    if (typeof navigator.share !== 'function') return void copyLink();
    navigator.share({ title: t('invite.share_title'), text: t('invite.share_text'), url: link }).catch((error: unknown) => {
      // Closing the sheet is the user's choice, not a failure.
      if (!(error instanceof DOMException && error.name === 'AbortError')) void copyLink();
    });
  };

  return (
    <div className="invite">
      <p className="invite-intro">{t('invite.intro')}</p>
      <figure className="invite-qr">
        <QRCodeSVG
          value={link}
          size={184}
          marginSize={2}
          role="img"
          aria-label={t('invite.qr_label')}
          title={t('invite.qr_label')}
        />
      </figure>
      <dl className="invite-facts">
        <div className="invite-fact">
          <dt>{t('invite.code')}</dt>
          <dd className="invite-code" translate="no">
            <bdi>{code}</bdi>
          </dd>
        </div>
        <div className="invite-fact">
          <dt id={countLabel}>{t('invite.registered')}</dt>
          <dd className="invite-count" aria-labelledby={countLabel} data-testid="invite-count">
            {formatNumber(invited, 0)}
          </dd>
        </div>
      </dl>
      <div className="invite-link">
        <span className="invite-link-label" id={linkLabel}>
          {t('invite.link')}
        </span>
        {/* A URL reads left to right on an Arabic page too. */}
        <bdi
          className="invite-link-value"
          dir="ltr"
          translate="no"
          role="textbox"
          aria-readonly="true"
          aria-labelledby={linkLabel}
        >
          {link}
        </bdi>
      </div>
      <div className="invite-actions">
        <Button color="primary" size="large" onClick={() => void copyLink()}>
          <LinkOutline aria-hidden="true" /> {t('invite.copy')}
        </Button>
        <Button color="primary" fill="outline" size="large" onClick={share}>
          <UploadOutline aria-hidden="true" /> {t('invite.share')}
        </Button>
      </div>
    </div>
  );
}
