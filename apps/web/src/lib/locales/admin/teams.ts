/** The texts of the console's teams tab. */
export const teams = {
  title: 'Teams',
};
