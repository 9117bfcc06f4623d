/** Small pieces every page uses: dialogs, the secret shown once, states of a loading list. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/** A modal dialog (the browser's own <dialog>: focus kept inside, Escape closes it). */
export const Dialog = ({ title, onClose, children }: { title: string; onClose: () => void; children: ComponentChildren }) => {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="dialog-title">{title}</h2>
      {children}
    </dialog>
  );
};

/** Asks before something that cannot be undone; shows the API's refusal where it happened. */
export const Confirm = ({
  title,
  message,
  action,
  danger,
  onConfirm,
  onClose,
}: {
  title: string;
  message: ComponentChildren;
  action: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title={title} onClose={onClose}>
      <p>{message}</p>
      {error && <Alert>{error}</Alert>}
      <div class="actions">
        <button type="button" class="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          class={danger ? 'danger' : 'primary'}
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await onConfirm();
            } catch (failure) {
              setError((failure as Error).message);
              setBusy(false);
            }
          }}
        >
          {busy ? 'Working…' : action}
        </button>
      </div>
    </Dialog>
  );
};

/**
 * A value to copy (a client id): wraps within its box at any width, with a button beside it
 * that copies it and says whether that worked (clipboard access may be refused).
 */
export const CopyValue = ({ value, label, testId }: { value: string; label: string; testId?: string }) => {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  return (
    <div class="copy-value">
      <code data-testid={testId}>{value}</code>
      <button
        type="button"
        class="secondary"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setCopied('yes');
          } catch {
            setCopied('no');
          }
        }}
      >
        {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Copy failed' : label}
      </button>
      <span class="visually-hidden" role="status">
        {copied === 'yes' ? 'Copied to the clipboard' : copied === 'no' ? 'Could not copy: select it instead' : ''}
      </span>
    </div>
  );
};

/** A secret shown once: copy button, and the warning that it will not be shown again. */
export const SecretReveal = ({
  title,
  fields,
  secret,
  secretLabel,
  onClose,
}: {
  title: string;
  fields: [string, string][];
  secret: string;
  secretLabel: string;
  onClose: () => void;
}) => {
  const [copied, setCopied] = useState(false);
  return (
    <Dialog title={title} onClose={onClose}>
      <dl class="facts">
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <code>{value}</code>
            </dd>
          </div>
        ))}
        <div>
          <dt>{secretLabel}</dt>
          <dd>
            <code class="secret" data-testid="secret">
              {secret}
            </code>
          </dd>
        </div>
      </dl>
      <p class="warning" role="note">
        Copy the secret now: it will not be shown again.
      </p>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy secret'}
        </button>
        <button type="button" class="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
};

export const Alert = ({ children }: { children: ComponentChildren }) => (
  <p class="alert" role="alert">
    {children}
  </p>
);

export const Loading = ({ what }: { what: string }) => (
  <p class="muted" aria-busy="true">
    Loading {what}…
  </p>
);

export const Empty = ({ title, children }: { title: string; children?: ComponentChildren }) => (
  <div class="empty">
    <h3>{title}</h3>
    {children && <p>{children}</p>}
  </div>
);

export const Badge = ({ tone, children }: { tone: string; children: ComponentChildren }) => (
  <span class={`badge ${tone}`}>{children}</span>
);

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const When = ({ at }: { at: string | null }) =>
  at ? <time dateTime={at}>{dateTime.format(new Date(at))}</time> : <span class="muted">Never</span>;

const exactTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A moment to the second (delivery attempts, events), in the admin's time zone. */
export const WhenExact = ({ at }: { at: string }) => (
  <time dateTime={at} class="exact">
    {exactTime.format(new Date(at))}
  </time>
);

/** A list the page loads: its data, its error, and a way to load it again. */
export const useLoad = <T,>(load: () => Promise<T>) => {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const reload = async () => {
    setState((current) => ({ ...current, loading: true }));
    try {
      setState({ data: await load(), loading: false });
    } catch (failure) {
      setState({ error: (failure as Error).message, loading: false });
    }
  };
  useEffect(() => {
    void reload();
  }, []);
  return { ...state, reload };
};

/** A page of the console: its heading, what it is for, and its main action. */
export const PageFrame = ({
  title,
  description,
  action,
  children,
}: {
  title: string;
  description: string;
  action?: ComponentChildren;
  children: ComponentChildren;
}) => (
  <section aria-labelledby="page-title">
    <header class="page-head">
      <div>
        <h1 id="page-title">{title}</h1>
        <p class="muted">{description}</p>
      </div>
      {action}
    </header>
    {children}
  </section>
);

/** A list's error, then its first load, its empty state, or the list itself. */
export const Listed = ({
  state,
  what,
  count,
  empty,
  children,
}: {
  state: { error?: string; loading: boolean; data?: unknown };
  what: string;
  count: number;
  empty: ComponentChildren;
  children: ComponentChildren;
}) => (
  <>
    {state.error && <Alert>{state.error}</Alert>}
    {state.loading && state.data === undefined ? <Loading what={what} /> : count === 0 && !state.error ? empty : children}
  </>
);

/** A listing read page by page (`next_cursor`): the items so far, and loading more or again. */
export const usePaged = <T,>(load: (cursor?: string) => Promise<{ items: T[]; next: string | null }>) => {
  const [items, setItems] = useState<T[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A reload supersedes every read under way (new filters, say): a late answer of one before it
  // is dropped, never shown over the newer one.
  const generation = useRef(0);
  const fetchPage = async (cursor?: string) => {
    const mine = cursor ? generation.current : ++generation.current;
    setError(null);
    try {
      const page = await load(cursor);
      if (mine !== generation.current) return;
      setItems((current) => (cursor ? [...(current ?? []), ...page.items] : page.items));
      setNext(page.next);
    } catch (failure) {
      if (mine !== generation.current) return;
      setError((failure as Error).message);
      setItems((current) => current ?? []);
    }
  };
  useEffect(() => {
    void fetchPage();
  }, []);
  return { items, next, error, setError, reload: () => fetchPage(), more: () => (next ? fetchPage(next) : Promise.resolve()) };
};
