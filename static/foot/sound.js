/**
 * The table's optional sounds, made with Web Audio (no sound files): a card laid or drawn, a
 * shuffle at a deal's start, a chime when it is your turn. Off until the player turns them on in
 * the settings; no AudioContext exists before that, so a page with sound off never makes one.
 */
import { onSettingsChange, settings } from "./settings.js";

let context = null;
let noise = null;
export const played = []; // the names of the sounds played, for the tests and the curious

function audioContext() {
  if (!settings().sound) return null;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Half a second of white noise, made once: the stuff of card sounds. */
function noiseBuffer(audio) {
  if (!noise) {
    noise = audio.createBuffer(1, Math.floor(audio.sampleRate * 0.5), audio.sampleRate);
    const samples = noise.getChannelData(0);
    for (let i = 0; i < samples.length; i += 1) samples[i] = Math.random() * 2 - 1;
  }
  return noise;
}

/** A short filtered burst of noise: a card snapping onto the felt. */
function snap(audio, at, { length = 0.06, pitch = 2400, volume = 0.35 } = {}) {
  const source = audio.createBufferSource();
  source.buffer = noiseBuffer(audio);
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  filter.Q.value = 0.9;
  const gain = audio.createGain();
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.001, at + length);
  source.connect(filter).connect(gain).connect(audio.destination);
  source.start(at, Math.random() * 0.4, length);
}

function tone(audio, at, frequency, length, volume = 0.18) {
  const oscillator = audio.createOscillator();
  oscillator.type = "sine";
  oscillator.frequency.value = frequency;
  const gain = audio.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(at);
  oscillator.stop(at + length + 0.05);
}

const SOUNDS = {
  card(audio) { snap(audio, audio.currentTime); },
  shuffle(audio) {
    for (let i = 0; i < 14; i += 1) snap(audio, audio.currentTime + i * 0.035, { length: 0.04, pitch: 1800 + (i % 3) * 500, volume: 0.22 });
  },
  turn(audio) {
    tone(audio, audio.currentTime, 660, 0.25);
    tone(audio, audio.currentTime + 0.14, 880, 0.35);
  },
};

/** Plays a sound by name ("card", "shuffle", "turn") if sounds are on. */
export function play(name) {
  const audio = audioContext();
  if (!audio || !SOUNDS[name]) return;
  try {
    SOUNDS[name](audio);
    played.push(name);
  } catch (error) { /* a sound is never worth breaking the table */ }
}

// Browsers start audio only after a gesture: turning sound on is one, so make the context then.
onSettingsChange((values) => { if (values.sound) play("card"); });
