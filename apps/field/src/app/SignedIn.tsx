import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChannelController } from '../channels/channelController';
import { ChannelHeader } from '../channels/ChannelHeader';
import { startBatteryReporter } from '../location/batteryReporter';
import { GpsStatus } from '../location/GpsStatus';
import { LocationReporter } from '../location/locationReporter';
import { CheckIn } from '../safety/CheckIn';
import { ManDown } from '../safety/ManDown';
import { sendAlarm } from '../safety/sosSender';
import { SosButton } from '../safety/SosButton';
import type { FieldSession, SessionState } from '../session/fieldSession';
import { useStore } from '../shared/useStore';
import { TalkScreen } from '../talk/TalkScreen';
import { useFieldSession } from './useSession';
import { CameraIndicator } from '../video/CameraIndicator';
import { FieldCamera } from '../video/fieldCamera';
import { useWakeLock } from './useWakeLock';

type SignedInState = Extract<SessionState, { kind: 'signedIn' }>;

/** The signed-in session's controllers, made once and started while the screen is shown. */
function useControllers(session: FieldSession) {
  const [controllers] = useState(() => ({
    channels: new ChannelController(session),
    location: new LocationReporter(session),
    camera: new FieldCamera(session),
  }));
  useEffect(() => {
    const stops = [
      controllers.channels.start(),
      controllers.location.start(),
      controllers.camera.start(),
      startBatteryReporter(session),
    ];
    return () => stops.forEach((stop) => stop());
  }, [controllers, session]);
  return controllers;
}

/** The radio: who is signed in, the channel, talk, location, and the safety buttons. */
export function SignedIn({ state }: { state: SignedInState }) {
  const { t } = useTranslation();
  const session = useFieldSession();
  const { channels, location, camera } = useControllers(session);
  const { current } = useStore(channels);
  const socket = session.socket;
  useWakeLock();
  const alarm = (type: 'sos' | 'manDown') => () => sendAlarm(session.socket, type, location.lastFix());
  return (
    <main className="radio">
      <header className="radio__top">
        <span className={state.online ? 'badge badge--online' : 'badge badge--offline'} role="status">
          {state.online ? t('status.online') : t('status.offline')}
        </span>
        <span className="radio__me">{state.name}</span>
        <button type="button" className="link" onClick={() => void session.signOut()}>
          {t('signOut')}
        </button>
      </header>
      <ChannelHeader controller={channels} />
      <GpsStatus reporter={location} />
      <CameraIndicator camera={camera} />
      {socket && (
        <TalkScreen
          socket={socket}
          cid={current?.cid}
          channelName={current?.name ?? ''}
          me={{ uid: state.uid, name: state.name }}
        />
      )}
      <CheckIn socket={socket} due={state.checkInDue !== undefined} onAnswered={() => session.checkedIn()} />
      <div className="safetyRow">
        <ManDown onAlarm={alarm('manDown')} />
        <div className="sosArea">
          <SosButton onSos={alarm('sos')} />
        </div>
      </div>
    </main>
  );
}
