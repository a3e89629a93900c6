import { categoryOf, ErrorCode } from '../errors/error-catalog';

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  timestamp: string;
}

export interface CodeEnvelope<T> {
  code: number;
  message: string;
  data: T | null;
}

export interface ErrorEnvelope {
  success: false;
  error: { code: ErrorCode; message: string; category: string; traceId: string };
  timestamp: string;
}

export function successEnvelope<T>(data: T): SuccessEnvelope<T> {
  return { success: true, data, timestamp: new Date().toISOString() };
}

export function codeEnvelope<T>(data: T): CodeEnvelope<T> {
  return { code: 0, message: 'success', data };
}

export function errorEnvelope(code: ErrorCode, message: string, traceId: string): ErrorEnvelope {
  return { success: false, error: { code, message, category: categoryOf(code), traceId }, timestamp: new Date().toISOString() };
}

export function codeErrorEnvelope(status: number, message: string): CodeEnvelope<never> {
  return { code: status, data: null, message };
}
