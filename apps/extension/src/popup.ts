import type { CreateLinkBody, Menu } from '@signpost/contract';
import { createLinkSearch } from '@signpost/link-search';
import type { ExtensionApi } from './browser-api';
import { currentPage, type CurrentPage } from './current-page';
import { h, markField, say } from './dom';
import { collectionChoices, defaultChoice, type CollectionChoice } from './menu-choices';
import { indexLinks, placesOf, type IndexedLink } from './menu-search';
import { failureMessage, type LinkField, type Message } from './messages';
import { readPortalAddress } from './portal-address';
import { addLink, getMenu, PortalError, suggestLink, type Session } from './portal-client';
import {
  forgetPending,
  forgetToken,
  readSaved,
  saveLastCollection,
  savePending,
  saveSession,
  sessionOf,
  type Saved,
} from './saved';
import { texts } from './texts';

export interface PopupDeps {
  api: ExtensionApi;
  /** The network, replaced in tests. */
  fetch?: typeof fetch;
  /** Closes the popup after a link was opened (the popup window's own close). */
  close?: () => void;
}

/** At most this many search results are listed; the count says how many matched. */
export const SHOWN_RESULTS = 8;

/** Only these schemes are ever opened from the popup (as in the portal). */
const SAFE = /^(https?|mailto):/i;

/** The search over the links the popup may open, ranked as the portal ranks (decision 0053). */
const searchOpenable = (index: readonly IndexedLink[]) =>
  createLinkSearch(index.filter(({ item }) => SAFE.test(item.url)));

const newTab = (url: string, ...children: (Node | string)[]) =>
  h(
    'a',
    { href: url, target: '_blank', rel: 'noopener noreferrer' },
    ...children,
    h('span', { class: 'visually-hidden' }, ` ${texts.opensInNewTab}`),
  );

/**
 * The popup: a sign-in form until the extension holds a portal's address and a token that
 * works, then the page to add (name, address, description, collection) and the search.
 */
export async function startPopup(root: HTMLElement, deps: PopupDeps): Promise<void> {
  const { api } = deps;
  const fetchImpl = deps.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const close = deps.close ?? (() => window.close());
  const saved = await readSaved(api);
  const session = sessionOf(saved);
  if (session) await showPortal(session, saved.lastCollection);
  else if (saved.origin && saved.pendingToken) await resume(saved.origin, saved.pendingToken);
  else showSignIn(saved, null);

  /**
   * Checks a pasted token with the menu: kept, and the portal shown, when the portal takes
   * it; else forgotten, and what to say returned.
   */
  async function finishSignIn(session: Session): Promise<Message | null> {
    try {
      const menu = await getMenu(session, fetchImpl);
      await saveSession(api, session);
      await showPortal(session, null, menu);
      return null;
    } catch (error) {
      await forgetPending(api);
      return failureMessage(error, session.origin, true);
    }
  }

  /**
   * A sign-in the browser interrupted to ask for the portal's host (Firefox asks once the
   * popup has closed): finished now if the person allowed it, else asked for again.
   */
  async function resume(origin: string, token: string) {
    const address = readPortalAddress(origin);
    const granted =
      address.ok &&
      (await api.permissions.contains({ origins: [address.permission] }).catch(() => false));
    const problem = granted
      ? await finishSignIn({ origin, token })
      : { text: texts.permissionRefused(origin) };
    if (!granted) await forgetPending(api);
    if (problem) showSignIn({ origin }, { text: problem.text, alert: true });
  }

  /** The sign-in form; `message` says why it shows (a refused token, a sign-out). */
  function showSignIn(
    saved: Pick<Saved, 'origin'>,
    message: { text: string; alert: boolean } | null,
  ) {
    const origin = h('input', {
      id: 'origin',
      name: 'origin',
      type: 'url',
      inputmode: 'url',
      autocomplete: 'url',
      spellcheck: 'false',
      placeholder: 'https://links.example.com',
      'aria-describedby': 'origin-hint origin-error',
      value: saved.origin ?? '',
    });
    const originError = h('p', { id: 'origin-error', class: 'field-error' });
    const token = h('input', {
      id: 'token',
      name: 'token',
      type: 'password',
      autocomplete: 'off',
      spellcheck: 'false',
      'aria-describedby': 'token-hint token-error',
    });
    const tokenError = h('p', { id: 'token-error', class: 'field-error' });
    const portalLink = newTab('', texts.openPortalForToken);
    const alert = h('p', { role: 'alert', class: 'error' });
    const status = h('p', { role: 'status', class: 'notice' });
    const submit = h('button', { type: 'submit', class: 'button button--primary' }, texts.signIn);
    const form = h(
      'form',
      { class: 'sign-in', novalidate: true, 'aria-labelledby': 'sign-in-title' },
      h('h1', { id: 'sign-in-title' }, texts.signInTitle),
      h('label', { class: 'field', for: 'origin' }, texts.portalAddress),
      origin,
      h('p', { id: 'origin-hint', class: 'hint' }, texts.portalAddressHint),
      originError,
      h('label', { class: 'field', for: 'token' }, texts.token),
      token,
      h('p', { id: 'token-hint', class: 'hint' }, texts.tokenHint, ' ', portalLink),
      tokenError,
      alert,
      status,
      submit,
    );
    root.replaceChildren(form);
    if (message) say(message.alert ? alert : status, message.text);

    const showPortalLink = () => {
      const address = readPortalAddress(origin.value);
      portalLink.hidden = !address.ok;
      if (address.ok) portalLink.href = `${address.origin}/`;
    };
    showPortalLink();
    origin.addEventListener('input', showPortalLink);
    (saved.origin ? token : origin).focus();

    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (submit.disabled) return;
      say(alert, null);
      say(status, null);
      markField(origin, originError, null);
      markField(token, tokenError, null);
      const address = readPortalAddress(origin.value);
      if (!address.ok) {
        const problems = {
          missing: texts.addressMissing,
          invalid: texts.addressInvalid,
          'not-https': texts.addressNotHttps,
        };
        markField(origin, originError, problems[address.problem]);
        origin.focus();
        return;
      }
      const pasted = token.value.trim();
      if (pasted === '') {
        markField(token, tokenError, texts.tokenMissing);
        token.focus();
        return;
      }
      const session = { origin: address.origin, token: pasted };
      // Kept first, in case the popup closes before the browser answers (resume, above).
      const kept = savePending(api, session);
      // Asked here, in the click itself: Firefox grants a permission only during the
      // person's action, and Chromium answers at once when it is granted already.
      const asked = api.permissions.request({ origins: [address.permission] });
      void signIn(
        session,
        kept.then(() => asked),
      );
    });

    async function signIn(session: Session, asked: Promise<boolean>) {
      submit.disabled = true;
      submit.textContent = texts.signingIn;
      try {
        if (!(await asked.catch(() => false))) {
          await forgetPending(api);
          say(alert, texts.permissionRefused(session.origin));
          return;
        }
        const problem = await finishSignIn(session);
        if (problem?.signIn) {
          markField(token, tokenError, problem.text);
          token.focus();
        } else if (problem) {
          say(alert, problem.text);
        }
      } finally {
        submit.disabled = false;
        submit.textContent = texts.signIn;
      }
    }
  }

  /** A refused token: forget it, and ask for a new one, saying why. */
  async function askForNewToken(session: Session, message: Message) {
    await forgetToken(api);
    showSignIn({ origin: session.origin }, { text: message.text, alert: true });
  }

  /** The page to add and the search; the menu is read now unless it was just read. */
  async function showPortal(session: Session, lastCollection: string | null, first?: Menu) {
    const page = await currentPage(api).catch((): CurrentPage => ({ url: '', title: '' }));
    let choices: CollectionChoice[] = [];
    let index: IndexedLink[] = [];
    let searchLinks = searchOpenable(index);

    /** A field of the link: its label, its control, hints below it, and its error. */
    const field = (
      id: LinkField,
      label: string,
      control: HTMLInputElement | HTMLTextAreaElement,
      hint?: HTMLElement,
    ) => {
      const error = h('p', { id: `${id}-error`, class: 'field-error' });
      const described = hint ? `${hint.id} ${error.id}` : error.id;
      control.setAttribute('aria-describedby', described);
      const caption = h('label', { class: 'field', for: id }, label);
      return { control, error, nodes: [caption, control, ...(hint ? [hint] : []), error] };
    };
    const name = field(
      'name',
      texts.linkName,
      h('input', { id: 'name', name: 'name', type: 'text', value: page.title }),
    );
    const urlHint = h('p', { id: 'url-hint', class: 'hint' });
    const url = field(
      'url',
      texts.linkAddress,
      h('input', {
        id: 'url',
        name: 'url',
        type: 'text',
        inputmode: 'url',
        spellcheck: 'false',
        value: page.url,
      }),
      urlHint,
    );
    const description = field(
      'description',
      texts.linkDescription,
      h('textarea', { id: 'description', name: 'description', rows: 2 }),
    );
    const collection = h('select', { id: 'collection', name: 'collection', disabled: true });
    collection.append(h('option', { value: '' }, texts.loading));
    const alert = h('p', { role: 'alert', class: 'error' });
    const status = h('p', { role: 'status', class: 'notice' });
    const retry = h('button', { type: 'button', class: 'button', hidden: true }, texts.retry);
    const submit = h(
      'button',
      { type: 'submit', class: 'button button--primary', disabled: true },
      texts.add,
    );
    const form = h(
      'form',
      { class: 'add', novalidate: true, 'aria-labelledby': 'add-title' },
      h('h1', { id: 'add-title' }, texts.addTitle),
      ...name.nodes,
      ...url.nodes,
      ...description.nodes,
      h('label', { class: 'field', for: 'collection' }, texts.collection),
      collection,
      alert,
      status,
      h('div', { class: 'actions' }, submit, retry),
    );

    const query = h('input', {
      id: 'query',
      name: 'query',
      type: 'search',
      autocomplete: 'off',
      'aria-describedby': 'result-count',
    });
    const count = h('p', { id: 'result-count', role: 'status', class: 'hint' });
    const results = h('ul', { class: 'results', 'aria-label': texts.search });
    const search = h(
      'section',
      { class: 'search', 'aria-labelledby': 'search-label' },
      h('label', { id: 'search-label', class: 'field', for: 'query' }, texts.search),
      query,
      count,
      results,
    );

    const who = h('span', { class: 'who' });
    const signOut = h('button', { type: 'button', class: 'link-button' }, texts.signOut);
    const header = h(
      'header',
      { class: 'bar' },
      newTab(`${session.origin}/`, texts.openPortal),
      who,
      signOut,
    );
    root.replaceChildren(header, form, search);
    (page.url ? name.control : url.control).focus();

    signOut.addEventListener('click', () => {
      void forgetToken(api).then(() =>
        showSignIn({ origin: session.origin }, { text: texts.signedOut, alert: false }),
      );
    });

    const chosen = () => choices.find((choice) => choice.id === collection.value) ?? null;
    const showAction = () => {
      const suggest = chosen()?.action === 'suggest';
      submit.textContent = suggest ? texts.suggest : texts.add;
    };
    const showPlaces = () => {
      const places = placesOf(index, url.control.value);
      const unread = page.url === '' && url.control.value.trim() === '';
      say(
        urlHint,
        places.length > 0 ? texts.alreadyIn(places.join(', ')) : unread ? texts.noPage : null,
      );
    };
    collection.addEventListener('change', showAction);
    url.control.addEventListener('input', showPlaces);
    showPlaces();

    /** Shows the menu's collections in the chooser, keeping the one chosen if it is there. */
    const showMenu = (menu: Menu, keep: string | null) => {
      choices = collectionChoices(menu);
      index = indexLinks(menu);
      searchLinks = searchOpenable(index);
      who.textContent = texts.signedInAs(menu.profile.name, menu.organization.name);
      const groups = new Map<string, HTMLOptGroupElement>();
      collection.replaceChildren();
      for (const choice of choices) {
        let group = groups.get(choice.group);
        if (!group) {
          group = h('optgroup', { label: choice.group });
          groups.set(choice.group, group);
          collection.append(group);
        }
        group.append(h('option', { value: choice.id }, choice.label));
      }
      const selected = defaultChoice(choices, keep);
      if (selected) collection.value = selected.id;
      collection.disabled = choices.length === 0;
      submit.disabled = choices.length === 0;
      if (choices.length === 0) say(alert, texts.noCollections);
      showAction();
      showPlaces();
      showResults();
    };

    const load = async (keep: string | null) => {
      say(alert, null);
      retry.hidden = true;
      try {
        showMenu(await getMenu(session, fetchImpl), keep);
      } catch (error) {
        const message = failureMessage(error, session.origin);
        if (message.signIn) return askForNewToken(session, message);
        say(alert, `${texts.loadFailed} ${message.text}`);
        retry.hidden = false;
      }
    };
    retry.addEventListener('click', () => void load(collection.value || lastCollection));

    const fields: Record<
      LinkField,
      { control: HTMLInputElement | HTMLTextAreaElement; error: HTMLElement }
    > = { name, url, description };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const choice = chosen();
      if (!choice || submit.disabled) return;
      void send(choice);
    });

    async function send(choice: CollectionChoice) {
      say(alert, null);
      say(status, null);
      for (const { control, error } of Object.values(fields)) markField(control, error, null);
      const body: CreateLinkBody = {
        name: name.control.value,
        url: url.control.value,
        description: description.control.value,
      };
      const suggest = choice.action === 'suggest';
      submit.disabled = true;
      submit.textContent = suggest ? texts.suggesting : texts.adding;
      try {
        await (suggest ? suggestLink : addLink)(session, choice.id, body, fetchImpl);
        say(status, suggest ? texts.suggested : texts.added(choice.where));
        await saveLastCollection(api, choice.id);
        // The menu now holds the page: "Already in …" and the search say so.
        if (!suggest) await load(choice.id);
      } catch (error) {
        const message = failureMessage(error, session.origin);
        if (message.signIn) return askForNewToken(session, message);
        // A collection deleted since the popup opened: the chooser shows what is there now.
        if (error instanceof PortalError && error.kind === 'not-found') await load(null);
        if (message.field) {
          markField(fields[message.field].control, fields[message.field].error, message.text);
          fields[message.field].control.focus();
        } else {
          say(alert, message.text);
        }
      } finally {
        submit.disabled = choices.length === 0;
        showAction();
      }
    }

    /** The best links that match the search, each to open in a new tab, and how many match. */
    const found = () => searchLinks(query.value, SHOWN_RESULTS);
    function showResults() {
      const { results: matches, total } = found();
      const text = query.value.trim();
      results.replaceChildren(
        ...matches.map(({ item, where }) =>
          h(
            'li',
            {},
            newTab(
              item.url,
              h('span', { class: 'result__name' }, item.name),
              h('span', { class: 'result__where' }, where),
            ),
          ),
        ),
      );
      say(
        count,
        text === '' ? null : total === 0 ? texts.noResults(text) : texts.resultCount(total),
      );
    }
    query.addEventListener('input', showResults);
    query.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      const [first] = found().results;
      if (first) void api.tabs.create({ url: first.item.url }).then(close);
    });

    if (first) showMenu(first, lastCollection);
    else await load(lastCollection);
  }
}
