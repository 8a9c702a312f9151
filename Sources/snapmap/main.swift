import Foundation
import MapEngine
import Raster

HeapTuning.keepFrameBlocks()
exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
