package dev.evidencestore.cli;

import java.net.http.HttpHeaders;

/** A successful answer: its status, headers and body as read. */
record Answer<T>(int status, HttpHeaders headers, T body) {
}
