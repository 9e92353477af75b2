import type { IconOption } from '@intercom/contract';

/** Colours of the built-in icon names until the map brings its images. */
const NAMED_COLOURS: Record<string, string> = {
  'user-sos': '#f5222d',
  'user-talking': '#52c41a',
  'user-online': '#1677ff',
  'user-offline': '#8c8c8c',
  'user-locked': '#fa8c16',
};

const isUrl = (icon: string) => /^(\/|https?:\/\/)/.test(icon);

/**
 * An icon drawn at its own size (`iconSize`), with a red dot where its `iconAnchor` sits (the
 * point that lies on the position). Built-in names are drawn as a map pin; a URL as the image.
 */
export function IconPreview({ option, colour, label }: { option: IconOption; colour?: string; label: string }) {
  const [width, height] = option.iconSize;
  const [anchorX, anchorY] = option.iconAnchor;
  const fill = colour ?? NAMED_COLOURS[option.icon] ?? '#1677ff';
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      style={{ position: 'relative', display: 'inline-block', width, height, flex: 'none' }}
    >
      {isUrl(option.icon) ? (
        <img src={option.icon} alt="" width={width} height={height} style={{ display: 'block' }} />
      ) : (
        <svg width={width} height={height} viewBox="0 0 25 41" preserveAspectRatio="none" aria-hidden="true">
          <path
            d="M12.5 0C5.6 0 0 5.6 0 12.5c0 9.4 12.5 28.5 12.5 28.5S25 21.9 25 12.5C25 5.6 19.4 0 12.5 0z"
            fill={fill}
          />
          <circle cx="12.5" cy="12.5" r="5" fill="#fff" />
        </svg>
      )}
      <span
        aria-hidden="true"
        style={{
          position: 'absolute',
          left: anchorX - 3,
          top: anchorY - 3,
          width: 6,
          height: 6,
          borderRadius: '50%',
          background: '#f5222d',
          boxShadow: '0 0 0 1px #fff',
        }}
      />
    </span>
  );
}
