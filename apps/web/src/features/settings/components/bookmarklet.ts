/**
 * The bookmarklet of the settings (decision 0066): a bookmark whose address is a script. On
 * any page it opens the portal at `origin` with that page's address and title in an
 * `#add?…` fragment, in a new tab, or in the same tab where the browser refused a new one.
 * The script is the bookmark's address, so it holds no `%` (a browser decodes those) and
 * returns nothing (a value would replace the page).
 */
export function bookmarklet(origin: string): string {
  const target = JSON.stringify(`${origin}/#add?url=`);
  return (
    'javascript:(()=>{' +
    `const u=${target}+encodeURIComponent(location.href)+'&title='+encodeURIComponent(document.title);` +
    "const w=window.open(u,'_blank');" +
    'if(!w)location.href=u' +
    '})()'
  );
}
