/** The texts of the console's audit tab. */
export const audit = {
  title: 'Audit log',
};
