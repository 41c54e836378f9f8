import { describe, expect, it } from 'vitest';
import { collectionChoices, defaultChoice } from './menu-choices';
import { makeMenu } from './test/menu-fixture';

describe('the collections a page can go to', () => {
  const choices = collectionChoices(makeMenu());

  it('lists My Space first, then its collections by path, the shares of others, each team and the organization', () => {
    expect(choices.map(({ id, action, label, group }) => [id, action, label, group])).toEqual([
      ['my', 'add', 'My Space', 'My Space'],
      ['reading', 'add', 'Reading list', 'My Space'],
      ['talks', 'add', 'Reading list › Talks', 'My Space'],
      ['launch', 'add', 'Launch checklist', 'My Space'],
      ['design-system', 'add', 'Design system', 'Shared collections'],
      ['code', 'suggest', 'Suggest to Engineering: Code & delivery', 'Engineering'],
      ['runbooks', 'suggest', 'Suggest to Engineering: Code & delivery › Runbooks', 'Engineering'],
      ['tools', 'add', 'Design tools', 'Design'],
      ['essentials', 'suggest', 'Suggest to Acme: Company essentials', 'Acme'],
    ]);
  });

  it('adds where the menu allows adding, even where suggesting is allowed too', () => {
    // Design's editor may do both: the page is added, not suggested to herself.
    expect(choices.find((choice) => choice.id === 'tools')?.action).toBe('add');
  });

  it('leaves out what allows neither, and the shared-root itself', () => {
    const ids = choices.map((choice) => choice.id);
    expect(ids).not.toContain('archive');
    expect(ids).not.toContain('shared-root');
  });

  it('names where the page went, without the "Suggest to" of the chooser', () => {
    expect(choices.find((choice) => choice.id === 'talks')?.where).toBe('Reading list › Talks');
    expect(choices.find((choice) => choice.id === 'code')?.where).toBe('Code & delivery');
  });

  it('preselects the collection used last while it is there, else My Space', () => {
    expect(defaultChoice(choices, 'talks')?.id).toBe('talks');
    expect(defaultChoice(choices, 'deleted-since')?.id).toBe('my');
    expect(defaultChoice(choices, null)?.id).toBe('my');
    expect(defaultChoice([], null)).toBeNull();
  });
});
