import { describe, expect, it } from 'vitest';
import { withKnownFacts } from '../calls/call-endings.js';
import { providerCall } from '../test-support/provider-call.js';
import { queuesConfigSchema } from './queue-config.js';
import { QueueDirectory } from './queue-directory.js';

const directory = new QueueDirectory(
  queuesConfigSchema.parse([
    { id: 'support', name: 'Support', numbers: ['+18005550100', '2001'], providerQueues: ['support-q'] },
    { id: 'sales', name: 'Sales', numbers: ['+18005550140', 'sales'], providerQueues: ['sales-q'] },
  ]),
);

describe("a call's queue", () => {
  it("is the phone system's own queue first, else the dialed number, else none; never for an outbound call", () => {
    // The phone system says sales, though the number dialed is support's.
    expect(directory.fieldsOf({ isOutbound: false, providerQueue: 'sales-q', calledNumber: '18005550100' })).toEqual({ queueID: 'sales', queueName: 'Sales' });
    // A queue of the phone system's that no queue lists: the number decides.
    expect(directory.fieldsOf({ isOutbound: false, providerQueue: 'other', calledNumber: '18005550100' })).toEqual({ queueID: 'support', queueName: 'Support' });
    expect(directory.fieldsOf({ isOutbound: false, calledNumber: '+18005550140' })).toEqual({ queueID: 'sales', queueName: 'Sales' });
    expect(directory.fieldsOf({ isOutbound: false, calledNumber: '2001' })).toEqual({ queueID: 'support', queueName: 'Support' });
    expect(directory.fieldsOf({ isOutbound: false, calledNumber: 'sales' })).toEqual({ queueID: 'sales', queueName: 'Sales' });
    // An extension matches exactly.
    expect(directory.fieldsOf({ isOutbound: false, calledNumber: 'Sales' })).toEqual({});
    expect(directory.fieldsOf({ isOutbound: false, calledNumber: '18005550199' })).toEqual({});
    expect(directory.fieldsOf({ isOutbound: false })).toEqual({});
    expect(directory.fieldsOf({ isOutbound: true, providerQueue: 'sales-q', calledNumber: '18005550140' })).toEqual({});
    expect(QueueDirectory.EMPTY.fieldsOf({ isOutbound: false, calledNumber: '18005550100' })).toEqual({});
  });

  it('stays the first one the call was known in: a transfer to another queue does not move it', () => {
    const first = providerCall('c', 1000, { queueID: 'support', queueName: 'Support', calledNumber: '18005550100' });
    const transferred = providerCall('c', 1000, { queueID: 'sales', queueName: 'Sales' });
    expect(withKnownFacts(transferred, first)).toMatchObject({ queueID: 'support', queueName: 'Support', calledNumber: '18005550100' });
    // A call first known in no queue takes the first it enters.
    expect(withKnownFacts(transferred, providerCall('c', 1000))).toMatchObject({ queueID: 'sales', queueName: 'Sales' });
    // A list that no longer tells the queue keeps it.
    expect(withKnownFacts(providerCall('c', 1000), first)).toMatchObject({ queueID: 'support', queueName: 'Support' });
  });
});
