// Form controls the views repeat: a list of <option>s, a submit row that says it is working, and
// a setting switch that shows the choice at once.
import { useState, type ReactNode } from 'react';

/** One <option> per value, labelled by `label` (default: the value itself). */
export function OptionList<T extends string>(props: { readonly values: readonly T[]; readonly label?: (value: T) => string }) {
  return (
    <>
      {props.values.map((value) => (
        <option key={value} value={value}>
          {props.label ? props.label(value) : value}
        </option>
      ))}
    </>
  );
}

/** A form's submit button in its button row: disabled while pending (or when `disabled`), saying so. */
export function SubmitRow(props: { readonly label: ReactNode; readonly pendingLabel: string; readonly pending: boolean; readonly disabled?: boolean }) {
  return (
    <div className="button-row">
      <button type="submit" className="button primary" disabled={props.pending || props.disabled === true}>
        {props.pending ? props.pendingLabel : props.label}
      </button>
    </div>
  );
}

/**
 * A setting as a switch: it shows the choice at once, and the stored value takes over again once
 * the change settles (a refused change is shown by the caller, under the switch, as `children`).
 */
export function SettingSwitch(props: { readonly label: ReactNode; readonly checked: boolean; readonly onChange: (checked: boolean) => Promise<unknown>; readonly children?: ReactNode }) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  return (
    <div className="setting">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={chosen ?? props.checked}
          onChange={(e) => {
            setChosen(e.target.checked);
            void props.onChange(e.target.checked).catch(() => undefined).finally(() => setChosen(null));
          }}
        />{' '}
        {props.label}
      </label>
      {props.children}
    </div>
  );
}
