/**
 * Which link an entry of a search index is: a link, or a person's favorite of one (`linkId`
 * is its original's id). The menu's items have this shape; the search shows a favorite and
 * its original as one result (decision 0053).
 */
export type SearchedLink =
  | { readonly type: 'link'; readonly id: string }
  | { readonly type: 'link-favorite'; readonly id: string; readonly linkId: string };

/** The fields of a link a query is matched against, besides the collection that holds it. */
export interface SearchedFields {
  readonly name: string;
  readonly appName: string | null;
  readonly description: string;
}

/**
 * One link of a search index, as the search reads it. An app's entry adds what it shows (the
 * link's place, its icon); the search reads only these.
 */
export interface LinkSearchEntry {
  readonly item: SearchedLink;
  /**
   * name, appName, parentName and description, each lower-cased once, joined by a line
   * break in that order (an absent appName is an empty part), so a match's position says
   * which field it is in. Made by `haystackOf`.
   */
  readonly haystack: string;
  /** Where the name ends in `haystack` (the name is `haystack.slice(0, nameEnd)`). */
  readonly nameEnd: number;
  /** Where the appName ends in `haystack` (it starts at `nameEnd + 1`). */
  readonly appNameEnd: number;
}

/**
 * The haystack of a link held by the collection named `parentName`, and where its name and
 * appName end in it (see LinkSearchEntry): built once per menu, so that a keystroke does one
 * `indexOf` per link.
 */
export function haystackOf(
  link: SearchedFields,
  parentName: string,
): Pick<LinkSearchEntry, 'haystack' | 'nameEnd' | 'appNameEnd'> {
  const name = link.name.toLowerCase();
  const appName = (link.appName ?? '').toLowerCase();
  return {
    haystack: `${name}\n${appName}\n${parentName.toLowerCase()}\n${link.description.toLowerCase()}`,
    nameEnd: name.length,
    appNameEnd: name.length + 1 + appName.length,
  };
}
