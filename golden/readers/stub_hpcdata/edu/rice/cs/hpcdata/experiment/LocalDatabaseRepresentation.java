package edu.rice.cs.hpcdata.experiment;

import java.io.File;
import edu.rice.cs.hpcdata.util.IProgressReport;

/** Stand-in (tests only): the database's folder, as ViewerBatch.java gives it. */
public class LocalDatabaseRepresentation {
    private final File file;

    public LocalDatabaseRepresentation(File file, Object filter, IProgressReport progress) { this.file = file; }

    public File getFile() { return file; }
}
