/** The texts of the console's people tab. */
export const people = {
  title: 'People',
};
