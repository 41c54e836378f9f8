import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EMPTY_LINK_DRAFT,
  LinkFields,
  linkFieldLabels,
  type LinkDraft,
} from '../../../components/link-fields';
import { Dialog } from '../../../components/dialog';
import {
  FieldMessage,
  invalidFieldProps,
  messageFor,
  useFocusField,
} from '../../../components/field-message';
import { ArrowLeftIcon, FolderIcon, PlusIcon } from '../../../components/icons';
import { ADD_LOADING_RESET_MS } from '../../../lib/constants';
import { serverMessage } from '../../../lib/server-message';
import { useAddItem, type AddItemVariables } from '../api/add-item';
import '../../../lib/panel-texts';

/** 0: choose what to add; 1: the link form; 2: the collection form. */
export type AddStep = 0 | 1 | 2;

interface AddInCollection {
  /** The collection the new item goes to (the panel's target). */
  panelId: string;
  /** The id of the panel it was opened from; a different id means a nested collection. */
  parentPanelId: string;
  spaceId?: undefined;
}

interface AddToSpace {
  /**
   * A team's or the organization's id: the panel shows only the collection form, and the
   * collection goes to the top of that space (decision 0008).
   */
  spaceId: string;
  panelId?: undefined;
  parentPanelId?: undefined;
}

export type AddPanelProps = (AddInCollection | AddToSpace) & {
  /**
   * 'personal-collection': opened inside a personal collection other than My Space; the
   * panel names the collection the link goes to.
   */
  variant?: 'default' | 'personal-collection';
  /** Named in the panel ('In …') for a personal collection and for a space. */
  targetName?: string;
  /**
   * A link to offer, filled in (a page sent by `#add?…`, decision 0066): the panel opens on
   * the link form with it, and adds nothing until the person presses Add.
   */
  initialLink?: LinkDraft;
  onClose: () => void;
};

const TITLES = { 0: 'add.title', 1: 'add.titleLink', 2: 'add.titleCollection' } as const;

// One key per close handler: a new handler means the panel was reopened for another place,
// and a new key starts it over (step, fields, the last call's failure). So does a new link
// to offer.
const handlerKeys = new WeakMap<object, number>();
let lastKey = 0;
function keyOf(handler: object) {
  let key = handlerKeys.get(handler);
  if (key === undefined) {
    key = ++lastKey;
    handlerKeys.set(handler, key);
  }
  return key;
}

/**
 * The add panel (spec §2, §4): a centered modal. Step 0 offers a new link or, on the
 * top-level panel only, a new collection. On a nested panel (its id differs from its parent
 * panel's) only the link form is shown; for a space (`spaceId`) only the collection form. The
 * submit button shows a loading state for
 * ADD_LOADING_RESET_MS whatever the result; the panel closes only when the call succeeded.
 */
export function AddPanel(props: AddPanelProps) {
  const offered = props.initialLink ? keyOf(props.initialLink) : 0;
  return <AddSteps key={`${keyOf(props.onClose)}.${offered}`} {...props} />;
}

function AddSteps({
  panelId,
  parentPanelId,
  spaceId,
  variant = 'default',
  targetName,
  initialLink,
  onClose,
}: AddPanelProps) {
  const { t } = useTranslation();
  const inSpace = spaceId !== undefined;
  const linkOnly = !inSpace && panelId !== parentPanelId;
  const firstStep: AddStep = inSpace ? 2 : linkOnly || initialLink ? 1 : 0;
  const [step, setStep] = useState<AddStep>(firstStep);
  const [loading, setLoading] = useState(false);
  const add = useAddItem();
  const [link, setLink] = useState<LinkDraft>(initialLink ?? EMPTY_LINK_DRAFT);
  const [collection, setCollection] = useState({ name: '', description: '' });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const formId = useId();
  const collectionFieldId = (field: 'name' | 'description') => `${formId}-collection-${field}`;
  // What a failed add shows (decision 0055): the server's message for what it refuses, under
  // the field it names, else beside the button; the polite default for any other failure.
  const linkProblem = useMemo(() => serverMessage(add.error, linkFieldLabels(t)), [add.error, t]);
  const collectionProblem = useMemo(
    () =>
      serverMessage(add.error, {
        name: t('add.collectionName'),
        description: t('add.collectionDescription'),
      }),
    [add.error, t],
  );
  const problem = step === 1 ? linkProblem : collectionProblem;
  useFocusField(step === 2 ? collectionProblem : null, collectionFieldId);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const goTo = (next: AddStep) => {
    add.reset();
    setStep(next);
  };
  const back = () => (step === firstStep ? onClose() : goTo(0));

  const submit = async (event: FormEvent, call: AddItemVariables) => {
    event.preventDefault();
    if (loading) return;
    // Shown for ADD_LOADING_RESET_MS whatever the call does (spec §4, §9).
    setLoading(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setLoading(false), ADD_LOADING_RESET_MS);
    if (await add.write(call)) onClose();
  };

  const submitButton = (
    <button type="submit" className="button button--primary" disabled={loading} aria-busy={loading}>
      {loading ? t('add.adding') : t('add.submit')}
    </button>
  );
  const failure =
    add.isError && !problem?.field ? (
      <p className="form-error" role="alert">
        {problem?.text ?? t('write.failed')}
      </p>
    ) : null;

  return (
    <Dialog
      open
      onClose={onClose}
      variant="center"
      className="add-panel"
      title={t(TITLES[step])}
      leading={
        <button type="button" className="icon-button" onClick={back} aria-label={t('space.back')}>
          <ArrowLeftIcon />
        </button>
      }
    >
      {(variant === 'personal-collection' || inSpace) && targetName ? (
        <p className="hint">{t('add.target', { name: targetName })}</p>
      ) : null}
      {step === 0 ? (
        <div className="add-choice">
          <p className="add-choice__question">{t('add.choose')}</p>
          <p className="hint">{t('add.chooseHint')}</p>
          <div className="add-choice__options">
            <button type="button" className="button add-choice__option" onClick={() => goTo(1)}>
              <PlusIcon />
              {t('add.newLink')}
            </button>
            <button type="button" className="button add-choice__option" onClick={() => goTo(2)}>
              <FolderIcon />
              {t('add.newCollection')}
            </button>
          </div>
        </div>
      ) : null}
      {step === 1 && !inSpace ? (
        <form
          className="add-form"
          onSubmit={(event) => void submit(event, { targetId: panelId, kind: 'link', data: link })}
        >
          <p>{t('add.linkPrompt')}</p>
          <LinkFields value={link} onChange={setLink} problem={linkProblem} />
          {failure}
          {submitButton}
        </form>
      ) : null}
      {step === 2 && !linkOnly ? (
        <form
          className="add-form"
          onSubmit={(event) =>
            void submit(
              event,
              inSpace
                ? { spaceId, kind: 'space-collection', data: collection }
                : { targetId: panelId, kind: 'collection', data: collection },
            )
          }
        >
          <p>{t('add.collectionPrompt')}</p>
          <label className="field">
            <span>{t('add.collectionName')}</span>
            <input
              id={collectionFieldId('name')}
              type="text"
              value={collection.name}
              onChange={(event) => setCollection({ ...collection, name: event.target.value })}
              {...invalidFieldProps(collectionFieldId('name'), messageFor(problem, 'name'))}
              // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the form replaces the choice step: typing goes on here
              autoFocus
            />
          </label>
          <FieldMessage fieldId={collectionFieldId('name')} message={messageFor(problem, 'name')} />
          <label className="field">
            <span>{t('add.collectionDescription')}</span>
            <textarea
              id={collectionFieldId('description')}
              rows={2}
              value={collection.description}
              onChange={(event) =>
                setCollection({ ...collection, description: event.target.value })
              }
              {...invalidFieldProps(
                collectionFieldId('description'),
                messageFor(problem, 'description'),
              )}
            />
          </label>
          <FieldMessage
            fieldId={collectionFieldId('description')}
            message={messageFor(problem, 'description')}
          />
          {failure}
          {submitButton}
        </form>
      ) : null}
    </Dialog>
  );
}
