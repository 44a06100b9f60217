package dev.evidencestore.cli;

import picocli.CommandLine;

/** The CLI's name and version, as it signs what it collects ({@code capture.collector}). */
final class Version implements CommandLine.IVersionProvider {

    static final String NUMBER = "0.1.0";
    static final String COLLECTOR = "evidence-cli " + NUMBER;

    @Override
    public String[] getVersion() {
        return new String[] {COLLECTOR + " (Java " + Runtime.version() + ")"};
    }
}
