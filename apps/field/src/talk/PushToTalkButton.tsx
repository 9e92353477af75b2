import { useRef, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePushToTalkSpace } from './usePushToTalkSpace';

interface Props {
  /** The look of the state it is in: `talking`, `busy` (someone else), `idle`. */
  tone: 'idle' | 'talking' | 'busy';
  onPress: () => void;
  onRelease: () => void;
  children: ReactNode;
}

/**
 * The big button, held to talk: a finger, a mouse button or the Space key. Pointer capture keeps the
 * talk going when the finger slides off it; a lost capture or a cancelled touch stops it.
 */
export function PushToTalkButton({ tone, onPress, onRelease, children }: Props) {
  const { t } = useTranslation('talk');
  const held = useRef(false);
  usePushToTalkSpace(onPress, onRelease);
  const down = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0 || held.current) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    held.current = true;
    onPress();
  };
  const up = () => {
    if (!held.current) return;
    held.current = false;
    onRelease();
  };
  return (
    <button
      type="button"
      data-ptt
      data-testid="talk-ptt"
      className={`ptt ptt--${tone}`}
      aria-label={t('ptt')}
      aria-pressed={tone === 'talking'}
      onPointerDown={down}
      onPointerUp={up}
      onPointerCancel={up}
      onLostPointerCapture={up}
      // A long touch opens the context menu (copy, share) on phones: not on this button.
      onContextMenu={(event) => event.preventDefault()}
    >
      {children}
    </button>
  );
}
