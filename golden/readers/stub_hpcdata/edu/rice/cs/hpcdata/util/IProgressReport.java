package edu.rice.cs.hpcdata.util;

/** Stand-in (tests only). */
public interface IProgressReport {
    static IProgressReport dummy() { return new IProgressReport() { }; }
}
