import type { TalkAgentEvent } from '@intercom/contract';
import WebSocket from 'ws';
import { DispatcherSeat, TerminalSocket, type SeatAudio } from '../src/index.js';
import { commandStep, runSeatRules, type SeatDriver } from './seatRules.run.js';
import { SEAT_AUTH_CODE } from './seatRules.table.js';

/** A microphone that sends two packets when started, and remembers whether it runs. */
export class FakeSeatAudio implements SeatAudio {
  sending = false;
  openMic(): void {}
  startSending(_cid: number, mic: Parameters<SeatAudio['startSending']>[1]): void {
    this.sending = true;
    mic.packet(new Uint8Array([0xf8, 1, 2]));
    mic.packet(new Uint8Array([0xf8, 3, 4]));
    mic.level(0.5);
  }
  stopSending(): void {
    this.sending = false;
  }
  play(): void {}
  video(): void {}
}

// The seat itself on a TerminalSocket, a new one per login as the talk agent does.
runSeatRules('DispatcherSeat', (peer) => {
  const audio = new FakeSeatAudio();
  const seat = new DispatcherSeat(audio);
  const events: TalkAgentEvent[] = [];
  seat.on('event', (event) => events.push(event));
  let socket: TerminalSocket | undefined;
  const driver: SeatDriver = {
    events,
    async command(step) {
      if (step[0] !== 'login') return commandStep(seat, step);
      socket = new TerminalSocket({ connect: () => new WebSocket(peer.url) });
      await socket.opened();
      await seat.login(socket, { authCode: SEAT_AUTH_CODE, dispatchNo: step[1] ?? 'D3', server: peer.url });
      return seat.videoList();
    },
    state: () => ({ ...seat.info(), mic: audio.sending }),
    close: () => {
      socket?.close();
      return Promise.resolve();
    },
  };
  return Promise.resolve(driver);
});
