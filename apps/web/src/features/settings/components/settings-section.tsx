import { useId, type ReactNode } from 'react';

interface Props {
  title: string;
  children: ReactNode;
}

/** One titled section of the settings panel, named by its heading. */
export function SettingsSection({ title, children }: Props) {
  const titleId = useId();
  return (
    <section className="panel-section settings-section" aria-labelledby={titleId}>
      <h3 id={titleId}>{title}</h3>
      {children}
    </section>
  );
}

/** The polite line under a section: a failure (alert) or a success (status). */
export function SectionMessages({
  error,
  notice,
}: {
  error: string | null;
  notice: string | null;
}) {
  return (
    <>
      <p role="alert" className="form-error">
        {error}
      </p>
      <p role="status" className="hint">
        {notice}
      </p>
    </>
  );
}
