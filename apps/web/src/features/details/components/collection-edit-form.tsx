import { useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FieldMessage,
  invalidFieldProps,
  messageFor,
  useFocusField,
} from '../../../components/field-message';
import type { Container } from '../../../lib/menu/locate-item';
import { serverMessage } from '../../../lib/server-message';
import { useEditItem } from '../api/edit-item';
import { EditFormFoot } from './edit-form-foot';
import '../../../lib/panel-texts';

type Field = 'name' | 'description' | 'color';

/** The colour a collection shows when it has none of its own, for the colour input. */
const NO_COLOR_VALUE = '#64748b';

/**
 * A collection's name, description and colour, editable in place (decision 0008), with the
 * add panel's labels and the server's message under the field it is about. My Space keeps its
 * name (`fixedName`).
 */
export function CollectionEditForm({
  collection,
  fixedName = false,
  onDone,
}: {
  collection: Container;
  fixedName?: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const fieldId = (field: Field) => `${formId}-${field}`;
  const [name, setName] = useState(collection.name);
  const [description, setDescription] = useState(collection.description);
  const [color, setColor] = useState<string | null>(collection.color);
  const edit = useEditItem();
  const problem = useMemo(
    () =>
      serverMessage<Field>(edit.error, {
        name: t('add.collectionName'),
        description: t('add.collectionDescription'),
        color: t('details.color'),
      }),
    [edit.error, t],
  );
  useFocusField(problem, fieldId);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      ...(!fixedName && name !== collection.name ? { name } : {}),
      ...(description !== collection.description ? { description } : {}),
      ...(color !== collection.color ? { color } : {}),
    };
    if (Object.keys(body).length === 0) {
      onDone();
      return;
    }
    const label = name.trim() || collection.name;
    if (await edit.write({ type: 'collection', id: collection.id, body, name: label })) onDone();
  };

  return (
    <form className="add-form details-edit" onSubmit={(event) => void save(event)}>
      {fixedName ? null : (
        <>
          <label className="field">
            <span>{t('add.collectionName')}</span>
            <input
              id={fieldId('name')}
              type="text"
              value={name}
              onChange={(event) => setName(event.target.value)}
              {...invalidFieldProps(fieldId('name'), messageFor(problem, 'name'))}
              // eslint-disable-next-line jsx-a11y-x/no-autofocus -- the form replaces the details the person asked to edit
              autoFocus
            />
          </label>
          <FieldMessage fieldId={fieldId('name')} message={messageFor(problem, 'name')} />
        </>
      )}
      <label className="field">
        <span>{t('add.collectionDescription')}</span>
        <textarea
          id={fieldId('description')}
          rows={2}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          {...invalidFieldProps(fieldId('description'), messageFor(problem, 'description'))}
        />
      </label>
      <FieldMessage fieldId={fieldId('description')} message={messageFor(problem, 'description')} />
      <fieldset className="field details-edit__color">
        <legend>{t('details.color')}</legend>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={color === null}
            onChange={(event) =>
              setColor(event.target.checked ? null : (collection.color ?? NO_COLOR_VALUE))
            }
          />
          {t('details.noColor')}
        </label>
        {color === null ? null : (
          <input
            id={fieldId('color')}
            type="color"
            aria-label={t('details.color')}
            value={color}
            onChange={(event) => setColor(event.target.value)}
            {...invalidFieldProps(fieldId('color'), messageFor(problem, 'color'))}
          />
        )}
      </fieldset>
      <FieldMessage fieldId={fieldId('color')} message={messageFor(problem, 'color')} />
      <EditFormFoot
        failed={edit.isError}
        problem={problem}
        pending={edit.isPending}
        onCancel={onDone}
      />
    </form>
  );
}
