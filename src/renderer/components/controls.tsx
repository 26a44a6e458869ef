// Form controls the views repeat: a list of <option>s, a submit row that says it is working, and
// a setting switch that shows the choice at once.
import { useEffect, useState, type ReactNode } from 'react';

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
  // The stored value takes over once it agrees with the choice (a refetch follows the save), so
  // the switch never flips back for a moment in between.
  useEffect(() => {
    if (chosen !== null && props.checked === chosen) setChosen(null);
  }, [chosen, props.checked]);
  return (
    <div className="setting">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          checked={chosen ?? props.checked}
          onChange={(e) => {
            const choice = e.target.checked;
            setChosen(choice);
            // A refused change shows the stored value again.
            void props.onChange(choice).then(
              () => undefined,
              () => setChosen(null),
            );
          }}
        />{' '}
        {props.label}
      </label>
      {props.children}
    </div>
  );
}
