// A turn of the worker's event loop: the messages that came meanwhile are handled
// before the promise resolves. Through a MessageChannel rather than setTimeout(0),
// which browsers make wait at least 4 ms once timers nest five deep (HTML's timer
// clamping): a long analysis built in pieces would idle that long between pieces.
const channel = new MessageChannel();
const resolvers = [];
channel.port1.onmessage = () => {
  resolvers.shift()();
  if (!resolvers.length) channel.port1.unref?.();  // Node: no turn pending keeps no process alive
};
channel.port1.unref?.();

export function nextTurn() {
  return new Promise((resolve) => {
    resolvers.push(resolve);
    channel.port1.ref?.();
    channel.port2.postMessage(null);
  });
}
