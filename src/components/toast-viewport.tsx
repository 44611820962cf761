import { useSyncExternalStore } from 'react';

import { dismissToast, toastStore, type Toast } from './toast-store.ts';

function ToastItem({ toast }: { toast: Toast }) {
  const { action } = toast;
  return (
    // Errors interrupt (alert); the others wait for a pause (status).
    <div
      className={`toast toast--${toast.tone ?? 'info'}`}
      role={toast.tone === 'error' ? 'alert' : 'status'}
    >
      <div className="toast__body">
        <p className="toast__message">{toast.message}</p>
        {toast.details?.length ? (
          <ul className="toast__details">
            {toast.details.map((detail, index) => (
              <li key={index}>{detail}</li>
            ))}
          </ul>
        ) : null}
      </div>
      {action ? (
        <button
          type="button"
          className="toast__action"
          aria-label={action.accessibleLabel}
          onClick={() => {
            dismissToast(toast.id);
            void action.run();
          }}
        >
          {action.label}
        </button>
      ) : null}
      <button
        type="button"
        className="toast__close"
        aria-label="Dismiss notification"
        onClick={() => dismissToast(toast.id)}
      >
        ×
      </button>
    </div>
  );
}

/**
 * The messages of `toast-store`, in a polite live region at the bottom of the window. Mount it
 * once, in the layout: the region must exist before a message arrives to be announced.
 */
export function ToastViewport() {
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.getSnapshot);
  return (
    <div className="toasts">
      <div className="toasts__list" aria-live="polite" aria-relevant="additions text">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </div>
    </div>
  );
}
