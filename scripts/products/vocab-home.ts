import { leaf, type Leaf } from "./vocab-types.ts"

// Home & Kitchen, Garden and Tools: real products, US list prices.
const KITCHEN = "Home & Garden > Kitchen & Dining > Kitchen Appliances"

export const home: ReadonlyArray<Leaf> = [
  leaf("Home & Kitchen", {
    sub: "Kitchen Appliances > Coffee Machines",
    gpc: `${KITCHEN} > Coffee Makers & Espresso Machines`,
    weight: 5,
    models: [
      ["De'Longhi", "Magnifica Evo ECAM29084", "Fully Automatic Espresso Machine with LatteCrema", 899.95],
      ["Breville", "Barista Express BES870XL", "Espresso Machine with Grinder", 699.95],
      ["Nespresso", "Vertuo Next", "Coffee and Espresso Machine by De'Longhi", 179],
      ["Nespresso", "Essenza Mini", "Espresso Machine by Breville", 199],
      ["Philips", "3200 Series EP3241", "Fully Automatic Espresso Machine with LatteGo", 799.99],
      ["Keurig", "K-Supreme Plus SMART", "Single Serve Coffee Maker", 199.99],
      ["Ninja", "CFP301 DualBrew Pro", "Specialty Coffee System", 229.99],
      ["Smeg", "DCF02", "Drip Filter Coffee Machine", 229.95],
      ["Moccamaster", "KBGV Select", "10-Cup Coffee Maker", 359]
    ],
    colors: ["Black", "Silver", "Stainless Steel", "Cream", "Pastel Blue"],
    features: [
      "built-in conical burr grinder",
      "milk frother for lattes and cappuccinos",
      "one-touch recipes",
      "removable water tank",
      "auto shut-off",
      "brews a full carafe in 6 minutes"
    ],
    uses: ["busy mornings", "coffee lovers", "the office kitchen", "entertaining guests", "small kitchens"],
    gifts: ["mom", "dad", "coffee lovers", "newlyweds", "a housewarming"]
  }),
  leaf("Home & Kitchen", {
    sub: "Kitchen Appliances > Blenders",
    gpc: `${KITCHEN} > Food Mixers & Blenders`,
    weight: 3,
    models: [
      ["Vitamix", "5200", "Professional-Grade Blender, 64 oz", 479.95],
      ["Ninja", "BN701 Professional Plus", "Blender with Auto-iQ", 129.99],
      ["NutriBullet", "Pro 900W", "Personal Blender", 99.99],
      ["KitchenAid", "K150", "3-Speed Ice Crushing Blender", 99.99],
      ["Breville", "the Super Q", "Blender", 499.95],
      ["Blendtec", "Classic 575", "Blender with WildSide+ Jar", 399.95]
    ],
    colors: ["Black", "White", "Red", "Slate"],
    features: [
      "crushes ice in seconds",
      "dishwasher-safe jar",
      "pulse and preset programmes",
      "self-cleaning cycle",
      "BPA-free"
    ],
    uses: ["smoothies", "protein shakes", "soups", "meal prep", "frozen desserts"],
    gifts: ["health nuts", "mom", "a housewarming"]
  }),
  leaf("Home & Kitchen", {
    sub: "Cookware",
    gpc: "Home & Garden > Kitchen & Dining > Cookware & Bakeware > Cookware",
    weight: 4,
    models: [
      ["Le Creuset", "Signature", "Enameled Cast Iron Round Dutch Oven, 5.5 qt", 420],
      ["Lodge", "L8SK3", "10.25 Inch Cast Iron Skillet", 24.9],
      ["All-Clad", "D3", "Stainless Steel 10-Piece Cookware Set", 799.99],
      ["Staub", "Cocotte", "Cast Iron 4-qt Round Cocotte", 299],
      ["HexClad", "Hybrid", '12" Frying Pan with Lid', 149.99],
      ["T-fal", "Ultimate", "Hard Anodized Nonstick 12-Piece Cookware Set", 149.99],
      ["Caraway", "Cookware Set", "Non-Toxic Ceramic Nonstick, 12 Pieces", 395]
    ],
    colors: ["Flame", "Cerise", "Marseille", "Sage", "Black", "Cream"],
    features: [
      "oven safe to 500°F",
      "even heat distribution",
      "works on induction",
      "dishwasher safe",
      "lifetime warranty"
    ],
    uses: ["weeknight dinners", "slow-cooked stews", "baking bread", "searing steaks", "first apartments"],
    gifts: ["newlyweds", "home cooks", "mom", "a housewarming"]
  }),
  leaf("Home & Kitchen", {
    sub: "Vacuums",
    gpc: "Home & Garden > Household Appliances > Vacuums",
    weight: 4,
    models: [
      ["Dyson", "V15 Detect", "Cordless Vacuum Cleaner", 749.99],
      ["Dyson", "V8", "Cordless Stick Vacuum", 399.99],
      ["Shark", "Navigator Lift-Away NV352", "Upright Vacuum", 199.99],
      ["Shark", "Stratos IZ862H", "Cordless Stick Vacuum", 429.99],
      ["iRobot", "Roomba j7+", "Self-Emptying Robot Vacuum", 599.99],
      ["Roborock", "Q7 Max", "Robot Vacuum and Mop", 399.99],
      ["Bissell", "CrossWave HydroSteam", "Wet Dry Vacuum", 299.99],
      ["Miele", "Complete C3 Calima", "Canister Vacuum", 849]
    ],
    colors: ["Nickel", "Grey", "Purple", "Black", "White"],
    features: [
      "HEPA filtration",
      "up to 60 minutes of run time",
      "anti-tangle brush roll",
      "laser dust detection",
      "app scheduling",
      "whole-machine filtration"
    ],
    uses: ["pet hair", "hardwood floors", "carpets", "small apartments", "allergy sufferers", "stairs"],
    gifts: ["pet owners", "new homeowners", "mom"]
  }),
  leaf("Home & Kitchen", {
    sub: "Kitchen Appliances > Small Appliances",
    gpc: KITCHEN,
    weight: 4,
    models: [
      ["KitchenAid", "Artisan Series KSM150PS", "5 Quart Tilt-Head Stand Mixer", 449.99],
      ["Ninja", "AF101", "Air Fryer, 4 Qt", 99.99],
      ["Ninja", "Foodi DZ201", "8 Qt 6-in-1 DualZone Air Fryer", 199.99],
      ["Instant Pot", "Duo 7-in-1", "Electric Pressure Cooker, 6 Qt", 99.95],
      ["COSORI", "Pro LE", "Air Fryer, 5 Qt", 89.99],
      ["Philips", "Airfryer XXL", "HD9650 Premium Air Fryer", 249.95],
      ["Breville", "Smart Oven Air Fryer Pro", "BOV900BSS Countertop Oven", 399.95]
    ],
    colors: ["Empire Red", "Black", "Stainless Steel", "Pistachio", "Matte Grey"],
    features: [
      "up to 75% less fat than deep frying",
      "dishwasher-safe basket",
      "10 speeds",
      "one-pot meals in under 30 minutes",
      "keeps food warm"
    ],
    uses: ["quick family dinners", "baking cookies", "meal prep", "busy parents", "college dorms"],
    gifts: ["bakers", "mom", "newlyweds", "a housewarming"]
  }),
  leaf("Garden", {
    sub: "Lawn & Outdoor Power",
    gpc: "Home & Garden > Lawn & Garden",
    weight: 3,
    models: [
      ["Greenworks", '40V 16"', "Cordless Lawn Mower with 4Ah Battery", 249.99],
      ["EGO", "Power+ LM2135SP", '21" Self-Propelled Cordless Mower', 649],
      ["Husqvarna", "Automower 430X", "Robotic Lawn Mower", 2999.95],
      ["Fiskars", "91095935J", "Bypass Pruning Shears", 14.99],
      ["Scotts", "Turf Builder", "Lawn Food, 15,000 sq. ft.", 49.99],
      ["Miracle-Gro", "Potting Mix", "2 cu. ft. Bag", 13.98],
      ["Gardena", "Comfort", "Multi-Pattern Spray Nozzle", 19.99]
    ],
    colors: [],
    features: [
      "quiet, emission-free operation",
      "folds flat for storage",
      "rust-resistant blades",
      "feeds for up to 3 months",
      "ergonomic grip"
    ],
    uses: ["small gardens", "spring lawn care", "vegetable beds", "container gardening", "large yards"],
    gifts: ["dad", "gardeners", "new homeowners"]
  }),
  leaf("Garden", {
    sub: "Grills & Outdoor Cooking",
    gpc: "Home & Garden > Kitchen & Dining > Barbecues & Grills",
    weight: 3,
    models: [
      ["Weber", "Spirit II E-310", "3-Burner Liquid Propane Gas Grill", 549],
      ["Weber", "Original Kettle", "22-Inch Charcoal Grill", 199],
      ["Traeger", "Pro 575", "Wi-Fi Pellet Grill and Smoker", 799.99],
      ["Solo Stove", "Bonfire 2.0", "Smokeless Fire Pit", 299.99],
      ["Ooni", "Koda 16", "Gas Pizza Oven", 599],
      ["Blackstone", "1883", '28" Griddle Cooking Station', 299]
    ],
    colors: ["Black", "Stainless Steel"],
    features: [
      "even heat across the whole grate",
      "app-controlled temperature",
      "porcelain-enamelled lid",
      "cooks a pizza in 60 seconds",
      "easy ash clean-up"
    ],
    uses: ["backyard BBQs", "summer parties", "camping trips", "tailgating", "smoking brisket"],
    gifts: ["dad", "grill masters", "father's day"]
  }),
  leaf("Tools", {
    sub: "Power Tools",
    gpc: "Hardware > Tools",
    weight: 4,
    models: [
      ["DeWalt", "DCD791D2", "20V MAX XR Brushless Drill/Driver Kit", 199],
      ["DeWalt", "DCS570B", "20V MAX 7-1/4 in. Cordless Circular Saw", 199],
      ["Makita", "XDT16R", "18V LXT Brushless Impact Driver Kit", 199],
      ["Milwaukee", "2904-22", "M18 FUEL 1/2 in. Hammer Drill Kit", 399],
      ["Bosch", "PS31-2A", "12V Max Drill/Driver Kit", 129],
      ["Bosch", "GLM 50-27 CG", "Green-Beam Laser Measure", 179],
      ["Ryobi", "PCL206K1", "ONE+ 18V Cordless Drill/Driver Kit", 79.97],
      ["Black+Decker", "BDCDD120C", "20V MAX Cordless Drill/Driver", 49.99],
      ["Craftsman", "CMMT99446", "230-Piece Mechanics Tool Set", 149.99],
      ["Stanley", "FatMax", "25 ft. Tape Measure", 19.98]
    ],
    colors: [],
    features: [
      "brushless motor for longer runtime",
      "two batteries and charger included",
      "LED work light",
      "compact, lightweight design",
      "3-year limited warranty"
    ],
    uses: [
      "DIY projects",
      "home renovation",
      "woodworking",
      "hanging shelves",
      "assembling furniture",
      "first apartments"
    ],
    gifts: ["dad", "DIY fans", "new homeowners", "father's day"]
  })
]
