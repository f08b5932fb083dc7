import { useState } from 'react';
import { setThemeChoice, themeChoice, type ThemeChoice } from '../theme';

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Light, dark, or whatever the system says (the default). */
export function ThemeSwitch() {
  const [choice, setChoice] = useState<ThemeChoice>(themeChoice);
  return (
    <label className="theme-switch">
      <span>Theme</span>
      <select
        value={choice}
        data-testid="theme-select"
        onChange={(e) => {
          const next = e.target.value as ThemeChoice;
          setChoice(next);
          setThemeChoice(next);
        }}
      >
        {CHOICES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
