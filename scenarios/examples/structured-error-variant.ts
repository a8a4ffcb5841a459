// The audit's recommendation ("keep structured failure details inside a declared, schema-conforming
// result variant"): an error result whose structuredContent conforms to a schema with an error variant.
// Every client, warm or cold, should hand it back unchanged.
const tool = {
  name: 'reserve_table',
  inputSchema: { type: 'object', properties: { time: { type: 'string' } } },
  outputSchema: {
    type: 'object',
    oneOf: [
      { properties: { reservationId: { type: 'string' } }, required: ['reservationId'] },
      { properties: { error: { type: 'string', enum: ['fully-booked', 'closed'] } }, required: ['error'] },
    ],
  },
};

export default {
  shape: 'error-conforming-variant',
  title: 'Error result whose structuredContent is a declared error variant',
  tool,
  result: {
    content: [{ type: 'text', text: 'Fully booked at 19:00. Try 20:30.' }],
    structuredContent: { error: 'fully-booked' },
    isError: true,
  },
  expected: { 'v1/warm': 'returned', 'v1/cold': 'returned', 'v2/warm': 'returned', 'v2/cold': 'returned' },
};
