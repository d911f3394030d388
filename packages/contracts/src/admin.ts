/** Schemas of the compute back-office calls (back-office.md §7). */
export {};
