import { useTranslation } from 'react-i18next';
import { useStore } from '../shared/useStore';
import type { ChannelBanner, ChannelController } from './channelController';

function BannerText({ banner }: { banner: ChannelBanner }) {
  const { t } = useTranslation();
  if (banner.kind === 'incident') return <span>{t('channel.regrouped', { name: banner.name })}</span>;
  return <span>{t(`channel.left.${banner.reason}`)}</span>;
}

/** The current channel with its online count, a switcher, and the regrouping or leaving banner. */
export function ChannelHeader({ controller }: { controller: ChannelController }) {
  const { t } = useTranslation();
  const { channels, current, banner } = useStore(controller);
  const entry = current && channels.find((channel) => channel.cid === current.cid);
  return (
    <>
      <section className="channelHeader" aria-label={t('channel.label')}>
        <div className="channelHeader__name">
          <strong>{current?.name || t('channel.none')}</strong>
          {entry && (
            <span className="channelHeader__online">
              {t('channel.online', { online: entry.online, members: entry.members })}
            </span>
          )}
        </div>
        {(channels.length > 0 || current) && (
          <label className="channelHeader__switch">
            <span className="visuallyHidden">{t('channel.switch')}</span>
            <select
              value={current?.cid ?? ''}
              onFocus={() => void controller.refresh(false)}
              onChange={(event) => void controller.choose(Number(event.target.value))}
            >
              {!current && <option value="">{t('channel.choose')}</option>}
              {current && !entry && <option value={current.cid}>{current.name}</option>}
              {channels.map((channel) => (
                <option key={channel.cid} value={channel.cid}>
                  {channel.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </section>
      {banner && (
        <div className={banner.kind === 'incident' ? 'banner banner--incident' : 'banner banner--info'} role="status">
          <BannerText banner={banner} />
          <button type="button" className="link" onClick={() => controller.dismissBanner()}>
            {t('dismiss')}
          </button>
        </div>
      )}
    </>
  );
}
