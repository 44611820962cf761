import { useId, useState } from 'react';

import { Button } from './button.tsx';

export interface ConfirmButtonProps {
  /** The button's text, e.g. "Delete". */
  label: string;
  /** The question asked before acting, e.g. "Delete this webpage?". */
  question: string;
  /** The confirming button's text; defaults to `label`. */
  confirmLabel?: string;
  onConfirm: () => void;
  /** Disables both steps while the action runs. */
  pending?: boolean;
}

/** A destructive action that asks first, inline (no modal): label → question, confirm, cancel. */
export function ConfirmButton({
  label,
  question,
  confirmLabel = label,
  onConfirm,
  pending = false,
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const questionId = useId();
  if (!asking) {
    return (
      <Button variant="danger" onClick={() => setAsking(true)} disabled={pending}>
        {label}
      </Button>
    );
  }
  return (
    <span className="confirm" role="group" aria-labelledby={questionId}>
      <span id={questionId} className="confirm__question">
        {question}
      </span>
      <Button variant="danger" onClick={onConfirm} disabled={pending}>
        {confirmLabel}
      </Button>
      {/* eslint-disable-next-line jsx-a11y/no-autofocus -- focus follows the user's click */}
      <Button onClick={() => setAsking(false)} disabled={pending} autoFocus>
        Cancel
      </Button>
    </span>
  );
}
