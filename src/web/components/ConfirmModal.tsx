import { useId } from 'react';
import type { Ack } from '../../shared/protocol';
import { common } from '../texts';
import { FormError, SlowLine, useAction } from './forms';
import { Modal } from './Modal';

export interface ConfirmModalProps {
  title: string;
  text?: string;
  confirmLabel: string;
  pendingLabel?: string;
  danger?: boolean;
  onConfirm: () => Promise<Ack<unknown>>;
  /** A second answer besides yes and cancel (the fold question's "Check"), shown under the first. */
  alternative?: { label: string; onConfirm: () => Promise<Ack<unknown>> };
  onClose: () => void;
}

/** A yes/no question in the shared dialog. Closes itself when the action succeeds. */
export function ConfirmModal({
  title,
  text,
  confirmLabel,
  pendingLabel,
  danger,
  onConfirm,
  alternative,
  onClose,
}: ConfirmModalProps) {
  const { pending, error, run } = useAction();
  const textId = useId();
  const answer = async (send: () => Promise<Ack<unknown>>) => {
    if (await run(send)) onClose();
  };
  return (
    // The question's text read with its title: focus opens on a button, and "Remove this player from
    // the game?" alone never said whom (session 36's accessibility audit).
    <Modal title={title} onClose={onClose} describedBy={text ? textId : undefined}>
      {text ? (
        <p className="modal-text" id={textId}>
          {text}
        </p>
      ) : null}
      <FormError message={error} />
      <div className="button-stack">
        <button
          type="button"
          className={danger ? 'button danger block large' : 'button primary block large'}
          disabled={pending}
          onClick={() => answer(onConfirm)}
        >
          {pending && pendingLabel ? pendingLabel : confirmLabel}
        </button>
        {alternative ? (
          <button
            type="button"
            className="button secondary block large"
            disabled={pending}
            onClick={() => answer(alternative.onConfirm)}
          >
            {alternative.label}
          </button>
        ) : null}
        <SlowLine pending={pending} />
        <button type="button" className="button secondary block" onClick={onClose}>
          {common.cancel}
        </button>
      </div>
    </Modal>
  );
}
