import { Input } from 'antd-mobile';

/** A price typed on a phone: the decimal keypad, never negative (spec §5: stop-loss and take-profit minimum 0). */
export function PriceInput(props: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
  className?: string;
}) {
  return (
    <Input
      className={props.className}
      type="number"
      step="any"
      inputMode="decimal"
      min={0}
      value={props.value}
      onChange={props.onChange}
      placeholder={props.placeholder}
      aria-label={props.label}
    />
  );
}
