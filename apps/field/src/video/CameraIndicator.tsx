import { useTranslation } from 'react-i18next';
import { useStore } from '../shared/useStore';
import type { FieldCamera } from './fieldCamera';
import './video.css';

/** While the camera sends (or could not open), a small line says so; nothing otherwise. */
export function CameraIndicator({ camera }: { camera: FieldCamera }) {
  const { t } = useTranslation('video');
  const view = useStore(camera);
  if (view.state === 'off') return null;
  if (view.state === 'failed') {
    return (
      <p className="cameraLine cameraLine--failed" role="status">
        {t('failed')}
      </p>
    );
  }
  return (
    <p className="cameraLine" role="status" data-codec={view.codec}>
      <span className="cameraLine__dot" aria-hidden="true" />
      {t('on')}
    </p>
  );
}
