interface TextFieldProps {
  label: string;
  name: string;
  type: 'tel' | 'password' | 'text';
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
}

/** A labelled input: the label names it for assistive technology and tests (`getByLabel`). */
export function TextField({ label, name, type, autoComplete, value, onChange }: TextFieldProps) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        name={name}
        type={type}
        autoComplete={autoComplete}
        {...(type === 'tel' ? { inputMode: 'tel' as const } : {})}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
