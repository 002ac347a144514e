import { Input } from 'antd-mobile';
import { useState } from 'react';
import { localizeFigure, plainFigure } from '../i18n/format';

/**
 * A price typed on a phone (docs/api.md: stop-loss and take-profit minimum 0), in the reader's own decimal
 * separator: a text field with the decimal keypad, since a number field reads a comma by the browser's
 * locale, not the app's, and can turn "1,085" into 1085. The form holds the plain figure ("1.085").
 */
export function PriceInput(props: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
  className?: string;
}) {
  const [typed, setTyped] = useState(() => localizeFigure(props.value));
  // What the reader is typing stays as typed ("1," on the way to "1,5"); a value the form set is shown anew.
  const shown = plainFigure(typed) === props.value ? typed : localizeFigure(props.value);
  return (
    <Input
      className={props.className}
      type="text"
      inputMode="decimal"
      role="spinbutton"
      autoComplete="off"
      value={shown}
      onChange={(next) => {
        setTyped(next);
        props.onChange(plainFigure(next));
      }}
      placeholder={props.placeholder}
      aria-label={props.label}
    />
  );
}
