/** How the charts tell queues apart: a colour each, told apart in both themes, and a dash each, so a line is known by more than its colour. */
export const QUEUE_SERIES = [
  { color: '#2563eb', dash: undefined },
  { color: '#d97706', dash: '8 4' },
  { color: '#059669', dash: '2 3' },
  { color: '#db2777', dash: '10 3 2 3' },
  { color: '#7c3aed', dash: '4 4' },
  { color: '#0891b2', dash: '12 4' },
  { color: '#65a30d', dash: '1 4' },
  { color: '#dc2626', dash: '6 2 2 2' },
] as const;

/** The most queues drawn as lines; the tables list them all. */
export const MOST_QUEUE_LINES = QUEUE_SERIES.length;
