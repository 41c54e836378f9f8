/** The texts of the console's broken links tab (decision 0069). */
export const brokenLinks = {
  title: 'Broken links',
  intro:
    'Links of team and organization spaces that failed two checks in a row, the longest broken first.',
  none: 'No broken links. Links are checked every day.',
  where: '{{space}} › {{collection}}',
  since: 'Broken since {{date}}',
  checked: 'last checked {{date}}',
  reasons: {
    status: 'The site answers {{status}}',
    dns: "The site's name does not resolve",
    timeout: 'The site did not answer in time',
    network: 'The site could not be reached',
    'too-many-redirects': 'The site redirects too many times',
    other: 'The check failed',
  },
  open: '{{name}} (opens in a new tab)',
  openWhere: 'Open in {{space}}',
  edit: 'Edit the address',
  save: 'Save the address',
  delete: 'Delete the link',
  dismiss: 'It works: a site that refuses robots',
  saved: 'Address saved. The link is checked again soon.',
  deleted: 'Link deleted. You can undo it from the notice for a few seconds.',
  restored: 'Link restored. It is checked again soon.',
  putBack: 'Address put back. The link is checked again soon.',
  dismissed: 'Marked as working: it is not listed as broken again until its address changes.',
};
