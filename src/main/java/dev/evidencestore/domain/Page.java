package dev.evidencestore.domain;

import java.util.List;

/** One page of a listing and where the next one starts, if there is one. */
public record Page<T>(List<T> items, PageCursor next) {
}
