// A terminal that talks from a process of its own, so its frames keep coming while the test process
// (and the server instances in it) stalls, as a real terminal's do. Reads one JSON line on stdin:
// { url, phone, password, cid, packets: [base64 Opus], gapMs }; logs in, joins, asks for the floor,
// sends every packet `gapMs` apart, releases, and prints one JSON line: the types it was sent.
import WebSocket from 'ws';

const input = JSON.parse(await new Promise((resolve) => process.stdin.once('data', (d) => resolve(String(d)))));
const socket = new WebSocket(input.url);
const received = [];
const waiting = new Map();
let seq = 0;
socket.on('message', (data, binary) => {
  if (binary) return;
  const message = JSON.parse(String(data));
  received.push(message.type);
  waiting.get(message.seq)?.(message);
});
const request = (message) =>
  new Promise((resolve) => {
    seq += 1;
    waiting.set(seq, resolve);
    socket.send(JSON.stringify({ seq, ...message }));
  });
await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
const steps = [
  { type: 'login', phone: input.phone, password: input.password },
  { type: 'join', cid: input.cid },
  { type: 'floorRequest', cid: input.cid },
];
for (const step of steps) {
  const reply = await request(step);
  if (reply.type !== 'ack') throw new Error(`${step.type} refused: ${JSON.stringify(reply)}`);
}
for (const [i, packet] of input.packets.entries()) {
  const opus = Buffer.from(packet, 'base64');
  // kind u8 = 1 · cid u32 · seq u16 · Opus packet (docs/terminal-protocol.md)
  const frame = Buffer.alloc(7 + opus.length);
  frame[0] = 1;
  frame.writeUInt32BE(input.cid, 1);
  frame.writeUInt16BE(i & 0xffff, 5);
  opus.copy(frame, 7);
  socket.send(frame);
  await new Promise((resolve) => setTimeout(resolve, input.gapMs));
}
await request({ type: 'floorRelease', cid: input.cid });
process.stdout.write(`${JSON.stringify({ received })}\n`);
socket.close();
